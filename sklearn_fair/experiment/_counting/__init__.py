"""Planning and counting an experiment's work before anything runs; never imports ``_running``."""
