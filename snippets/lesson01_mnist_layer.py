"""One dense layer on a batch of 32 MNIST-sized rows: 784 inputs -> 128 units."""

import numpy as np

import mlp_ref
from mlp_ref.initialization import he_normal

rng = np.random.default_rng(0)
X = rng.random((32, 784))  # 32 images of 28 x 28 pixels, flattened, values in [0, 1)
W = he_normal(784, 128, seed=1)  # (d_in, d_out) = (784, 128)
b = np.zeros(128)  # (d_out,)

A = mlp_ref.dense(X, W, b, activation="relu")  # (32, 784) @ (784, 128) + (128,) -> (32, 128)

print("X:", X.shape, " W:", W.shape, " b:", b.shape, " A:", A.shape)
print("parameters:", W.size + b.size, "=", mlp_ref.count_params([784, 128]))
print("fraction of outputs that are zero:", round(float(np.mean(A == 0)), 3))
