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
# # Lab A. Train an MLP on handwritten digits
#
# This lab is being written.

# %%
import mlp_ref
print(mlp_ref.count_params([64, 32, 16, 10]))
