"""The transcript grammar: finding and reading files, labels and their other names,
what values mean, question numbers, what a reply says, and the parse itself."""
