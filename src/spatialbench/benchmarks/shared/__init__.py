"""Parts several benchmark folders share: the VLMEvalKit/EASI TSV reader and the multiple-choice helpers.

Modules: ``images`` (images stored as bytes or base64 → files beside the data), ``tsv`` (the one reader of
the TSV files VLMEvalKit and EASI distribute), ``choice`` (lettered options, the image-then-question prompt
builder, accuracy by one item column).
"""
