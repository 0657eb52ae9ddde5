"""Search by meaning: a sentence-embedding model (all-MiniLM-L6-v2) run without a framework.

weights.py finds the model's package and turns its weights into the integer form both the
server and the judge pack compute with; encoder.py embeds a text; passages.py embeds the
corpus's items and answers how near each is to a question. Nothing here imports the rest of
judgekit: search reads it, not the other way round.
"""

import os

# A question's matrices are small: BLAS threads would only fight the server's own threads and
# processes for the cores (set before numpy is first imported, which is below this package).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
