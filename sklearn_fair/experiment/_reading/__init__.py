"""Reading an experiment file: everything :func:`~sklearn_fair.experiment.load_config` needs.

The file's size, nesting and grid sizes bounded before and while it is parsed
(``_limits.py``); its keys located by line for errors (``_locate.py``); the classes it
names imported only from allowed packages (``_imports.py``) and built (``_build.py``); its
paths resolved inside the allowed folders (``_paths.py``); its ``[protocol]`` checked
against NestedCV's parameters (``_protocol.py``); the whole checked into an
``ExperimentConfig`` with its data sets (``_config.py``: one ``[data]`` table or
``[data.NAME]`` tables); the data it names read (``_data.py``); and text from the file shown
safely, names turned into file names (``_text.py``). Nothing here fits a model, and nothing
imports the other two parts.
"""
