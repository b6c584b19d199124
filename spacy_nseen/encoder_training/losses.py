"""Contrastive loss with soft labels (NSEEN, Fakhraei et al. 2019, eq. 1).

L = ½·y·δ² + ½·(1−y)·max(0, m − δ)², where δ is the distance between the two vectors and y ∈ [0, 1]
a real-valued similarity label. With m = 1 the loss is minimal at δ = 1 − y (eq. 2), so a soft label
places the pair inside the margin instead of pulling it together or pushing it apart fully.
"""

from enum import Enum

import torch


class DistanceMetric(str, Enum):
    """Distances between embeddings, as in sentence-transformers' ContrastiveLoss."""

    COSINE = "cosine"
    EUCLIDEAN = "euclidean"


def pair_distance(
    left: torch.Tensor, right: torch.Tensor, metric: DistanceMetric = DistanceMetric.COSINE
) -> torch.Tensor:
    """Row-wise distance between two batches of vectors.

    RETURNS (torch.Tensor): shape (batch,). Cosine distance is 1 − cos, in [0, 2].
    """
    if metric == DistanceMetric.COSINE:
        return 1.0 - torch.nn.functional.cosine_similarity(left, right, dim=-1)
    return torch.linalg.vector_norm(left - right, dim=-1)


def soft_contrastive_loss(
    distance: torch.Tensor, label: torch.Tensor, margin: float = 1.0, reduction: str = "mean"
) -> torch.Tensor:
    """The soft-label contrastive loss of NSEEN eq. 1.

    distance (torch.Tensor): δ for each pair.
    label (torch.Tensor): y ∈ [0, 1] for each pair (1 = same entity, 0 = different).
    margin (float): m, how far apart dissimilar pairs are pushed.
    reduction (str): "mean", "sum" or "none".
    RETURNS (torch.Tensor): the loss.
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"reduction must be 'mean', 'sum' or 'none', got {reduction!r}")
    label = label.to(distance.dtype)
    losses = 0.5 * label * distance.pow(2) + 0.5 * (1.0 - label) * torch.clamp(margin - distance, min=0.0).pow(2)
    if reduction == "mean":
        return losses.mean() if losses.numel() else losses.sum()
    if reduction == "sum":
        return losses.sum()
    return losses


def in_batch_info_nce(vectors: torch.Tensor, entities: torch.Tensor, temperature: float = 0.05) -> torch.Tensor:
    """A supervised InfoNCE over all in-batch names (SupCon / SapBERT style): each name is pulled towards the
    other names of its entity and away from every other name of the batch, through a softmax over cosines.

    vectors (torch.Tensor): (n, d) unit vectors.
    entities (torch.Tensor): (n,) entity index of each vector.
    temperature (float): τ, the softmax temperature over cosines.
    RETURNS (torch.Tensor): −log of the share of each anchor's softmax mass on its positives, averaged over the
        anchors that have a positive (0 without any).
    """
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    n = vectors.shape[0]
    logits = vectors @ vectors.T / temperature
    self_mask = torch.eye(n, dtype=torch.bool, device=vectors.device)
    logits = logits.masked_fill(self_mask, float("-inf"))
    positive = (entities[:, None] == entities[None, :]) & ~self_mask
    anchors = positive.any(dim=1)
    if not bool(anchors.any()):
        return vectors.sum() * 0.0
    log_all = torch.logsumexp(logits[anchors], dim=1)
    log_pos = torch.logsumexp(logits[anchors].masked_fill(~positive[anchors], float("-inf")), dim=1)
    return (log_all - log_pos).mean()
