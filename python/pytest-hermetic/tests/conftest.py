"""The plugin's own tests. The plugin comes from the installed wheel (entry point pytest11); the
`pytester` fixture runs inner pytest sessions in subprocesses."""
pytest_plugins = ["pytester"]
