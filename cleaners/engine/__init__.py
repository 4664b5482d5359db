"""The columnar engine: a batch of documents is one table of lines, scored and decided together.
The line features are computed over that table at once (newsclean.cleaners.engine.features); the
rules' declared conditions too, in one polars pass over the batch's new lines
(newsclean.cleaners.engine.rule_conditions), which on ASCII lines decides outright the rules whose
condition is exact: a line none of whose rules is left to call meets no Python but the RE2 test of
the rules' start patterns (newsclean.cleaners.rules._Proposer.prime)."""
