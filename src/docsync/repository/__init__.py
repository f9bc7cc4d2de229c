"""What docsync reads from git: tracked files, changes, and the history records were dated by."""
