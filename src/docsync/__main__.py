from docsync.cli import main

main()
