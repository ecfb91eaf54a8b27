"""Training of the ``expert`` level's value network (:mod:`unokit.train.trainer`,
needs PyTorch: the ``train`` extra) from self-play data (:mod:`unokit.train.selfplay`,
NumPy only). Playing with the trained network needs only NumPy
(:mod:`unokit.bots.net`)."""
