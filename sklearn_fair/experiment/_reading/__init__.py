"""Reading an experiment file: nothing here fits a model or imports the other two parts."""
