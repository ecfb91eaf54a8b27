"""Game records: the format and its replay (:mod:`.record`), the deal
commitments (:mod:`.commitment`) and the ``unokit record`` commands."""
