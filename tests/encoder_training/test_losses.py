import pytest
import torch

from spacy_nseen.encoder_training.losses import DistanceMetric, in_batch_info_nce, pair_distance, soft_contrastive_loss


def loss_of(distance: float, label: float, margin: float = 1.0) -> float:
    return float(soft_contrastive_loss(torch.tensor([distance]), torch.tensor([label]), margin))


@pytest.mark.parametrize(
    "distance,label,margin,expected",
    [
        (0.5, 1.0, 1.0, 0.125),  # ½·1·0.5²
        (0.2, 0.0, 1.0, 0.32),  # ½·(1 − 0.2)²
        (1.5, 0.0, 1.0, 0.0),  # beyond the margin: no push
        (0.0, 1.0, 1.0, 0.0),  # identical vectors of the same entity
        (0.5, 0.5, 1.0, 0.125),  # ½·½·0.25 + ½·½·0.25
        (0.3, 0.0, 2.0, 1.445),  # ½·(2 − 0.3)²
        (0.4, 0.25, 1.0, 0.155),  # ½·¼·0.16 + ½·¾·0.36 = 0.02 + 0.135
    ],
)
def test_hand_worked_values(distance, label, margin, expected):
    assert loss_of(distance, label, margin) == pytest.approx(expected, abs=1e-6)


def test_reductions():
    distance = torch.tensor([0.5, 0.2])
    label = torch.tensor([1.0, 0.0])
    none = soft_contrastive_loss(distance, label, reduction="none")
    assert none.tolist() == pytest.approx([0.125, 0.32])
    assert float(soft_contrastive_loss(distance, label, reduction="sum")) == pytest.approx(0.445)
    assert float(soft_contrastive_loss(distance, label)) == pytest.approx(0.2225)
    empty = torch.zeros(0)
    assert float(soft_contrastive_loss(empty, empty)) == 0.0
    with pytest.raises(ValueError, match="reduction"):
        soft_contrastive_loss(distance, label, reduction="max")


def test_integer_labels_are_accepted():
    assert float(soft_contrastive_loss(torch.tensor([0.2]), torch.tensor([0]))) == pytest.approx(0.32)


@pytest.mark.parametrize("label", [0.2, 0.5, 0.7, 0.9])
def test_minimum_at_one_minus_label_by_gradient_descent(label):
    """NSEEN eq. 2: with m = 1 the loss is minimal at δ = 1 − y."""
    distance = torch.tensor([0.05], requires_grad=True)
    optimizer = torch.optim.SGD([distance], lr=0.5)
    for _ in range(200):
        optimizer.zero_grad()
        soft_contrastive_loss(distance, torch.tensor([label])).backward()
        optimizer.step()
    assert float(distance.detach()) == pytest.approx(1.0 - label, abs=1e-4)


@pytest.mark.parametrize("label", [0.2, 0.5, 0.7, 0.9])
def test_minimum_at_one_minus_label_on_a_grid(label):
    grid = torch.linspace(0.0, 2.0, 2001)
    losses = soft_contrastive_loss(grid, torch.full_like(grid, label), reduction="none")
    assert float(grid[int(losses.argmin())]) == pytest.approx(1.0 - label, abs=1e-3)


def test_pair_distance():
    a = torch.tensor([[1.0, 0.0], [1.0, 0.0], [3.0, 0.0], [0.0, 0.0]])
    b = torch.tensor([[0.0, 2.0], [-1.0, 0.0], [5.0, 0.0], [3.0, 4.0]])
    cosine = pair_distance(a[:3], b[:3])
    assert cosine.tolist() == pytest.approx([1.0, 2.0, 0.0], abs=1e-6)
    euclidean = pair_distance(a, b, DistanceMetric.EUCLIDEAN)
    assert euclidean.tolist() == pytest.approx([5**0.5, 2.0, 2.0, 5.0], abs=1e-6)
    assert pair_distance(a[:1], b[:1], "cosine").tolist() == pytest.approx([1.0])


def test_info_nce_hand_worked():
    # three unit vectors: a and b (entity 0) at cos 0.6, c (entity 1) orthogonal to a, cos 0.8 to b
    a, b, c = [1.0, 0.0], [0.6, 0.8], [0.0, 1.0]
    vectors = torch.tensor([a, b, c])
    entities = torch.tensor([0, 0, 1])
    tau = 0.5
    # anchor a: positives {b}: −log(e^{0.6/τ} / (e^{0.6/τ} + e^{0/τ})); anchor b: −log(e^{0.6/τ} / (e^{0.6/τ} + e^{0.8/τ}))
    expected_a = -torch.log(torch.exp(torch.tensor(1.2)) / (torch.exp(torch.tensor(1.2)) + 1.0))
    expected_b = -torch.log(torch.exp(torch.tensor(1.2)) / (torch.exp(torch.tensor(1.2)) + torch.exp(torch.tensor(1.6))))
    got = in_batch_info_nce(vectors, entities, temperature=tau)
    assert float(got) == pytest.approx(float((expected_a + expected_b) / 2), abs=1e-6)  # c has no positive


def test_info_nce_without_positives_is_zero_and_keeps_the_graph():
    vectors = torch.nn.functional.normalize(torch.randn(4, 3), dim=-1).requires_grad_()
    loss = in_batch_info_nce(vectors, torch.tensor([0, 1, 2, 3]))
    assert float(loss.detach()) == 0.0
    loss.backward()
    with pytest.raises(ValueError, match="temperature"):
        in_batch_info_nce(vectors, torch.tensor([0, 0, 1, 1]), temperature=0.0)


def test_info_nce_prefers_entities_apart():
    together = torch.tensor([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    mixed = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    entities = torch.tensor([0, 0, 1, 1])
    assert float(in_batch_info_nce(together, entities)) < 1e-6 < float(in_batch_info_nce(mixed, entities))
