"""What the command line does besides declaring commands: reading arguments, the streams and
formats it writes, the one mapping of errors to exit codes, the progress bar. Never imports typer."""
