"""RQ task functions: thin, importable, primitive arguments."""
