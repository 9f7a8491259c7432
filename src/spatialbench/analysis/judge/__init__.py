"""LLM-as-a-judge of reasoning phases (ReMindView-Bench Sec. 5.1, App. D.1).

``schema`` (the judge's JSON, validation), ``truth`` (the view graph as ground truth), ``agreement``
(averaging judges, Krippendorff's alpha, pairwise correlation, Table 2 layout), ``study`` (the registered
analysis ``judge`` and its document), ``views`` (its report table and bars, the command's text). Instruction
texts: ``data/texts.json`` (also the self-consistency instruction, App. D.3).
"""
