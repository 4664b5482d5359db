"""The columnar engine: a batch of documents is one table of lines, scored and decided together."""
