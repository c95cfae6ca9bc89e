"""Running an experiment: one benchmark, and its results folder."""
