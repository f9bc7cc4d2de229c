"""The one guarded writer and the transactions that complete or roll back."""
