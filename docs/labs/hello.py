# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Hello, notebook
#
# Math here: $z = Wx + b$.

# %%
import numpy as np
print(np.arange(3))
