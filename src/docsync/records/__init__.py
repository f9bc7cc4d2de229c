"""The record tree: records, their ids, the index, and the layout and refs gates."""
