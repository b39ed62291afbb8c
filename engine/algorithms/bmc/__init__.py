"""Bounded model checking: merged paths over the exact path encoding (``merged``, with its
memory model ``flatmemory``, the merge of two states ``merging`` and the visiting order
``wto``), and BMC through recursion over the Horn clauses (``recursion``).
"""
