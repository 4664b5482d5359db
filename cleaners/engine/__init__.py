"""The columnar engine: a batch of documents is one table of lines, scored and decided together.
The line features are computed over that table at once (newsclean.cleaners.engine.features)."""
