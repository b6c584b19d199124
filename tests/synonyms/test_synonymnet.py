import pytest
import torch

from spacy_nseen.synonyms.synonymnet import SynonymNet, SynonymNetConfig, siamese_loss, triplet_loss


def module(leaky: bool = True) -> SynonymNet:
    torch.manual_seed(0)
    net = SynonymNet(SynonymNetConfig(n_words=20, word_width=8, hidden_width=6, leaky=leaky, dropout=0.0))
    return net.eval()


def test_encoder_gives_one_vector_per_context() -> None:
    net = module()
    left = torch.tensor([[3, 4, 2], [5, 2, 0]])
    right = torch.tensor([[6, 2], [2, 0]])
    vectors = net.encode(left, torch.tensor([3, 2]), right, torch.tensor([2, 1]))
    assert vectors.shape == (2, 12)


@pytest.mark.parametrize("leaky", [True, False])
def test_padding_contexts_change_nothing_and_identical_sides_score_one(leaky: bool) -> None:
    net = module(leaky)
    h = torch.randn(1, 3, 12)
    g = torch.randn(1, 2, 12)
    mask_h, mask_g = torch.ones(1, 3, dtype=torch.bool), torch.ones(1, 2, dtype=torch.bool)
    score = net(h, mask_h, g, mask_g)
    padded_h = torch.cat([h, torch.randn(1, 2, 12)], dim=1)
    padded_mask = torch.cat([mask_h, torch.zeros(1, 2, dtype=torch.bool)], dim=1)
    assert torch.allclose(net(padded_h, padded_mask, g, mask_g), score, atol=1e-6)
    assert net(h, mask_h, h, mask_h).item() == pytest.approx(1.0, abs=1e-5)


def test_leaky_unit_lowers_the_weight_of_a_context_that_matches_nothing() -> None:
    informative = torch.zeros(12)
    informative[0] = 5.0
    useless = torch.zeros(12)
    useless[1] = -5.0
    h = torch.stack([informative, useless])[None]
    g = informative[None, None]
    mask_h, mask_g = torch.ones(1, 2, dtype=torch.bool), torch.ones(1, 1, dtype=torch.bool)
    similarity = {}
    for leaky in (True, False):
        net = module(leaky)
        with torch.no_grad():
            net.bilinear.copy_(torch.eye(12))
            h_bar, _ = net.aggregate(h, mask_h, g, mask_g)
        similarity[leaky] = torch.nn.functional.cosine_similarity(h_bar, informative[None]).item()
    # without the leaky unit the useless context is forced onto g with weight 1; with it, half goes to the unit
    assert similarity[False] == pytest.approx(1 / 2**0.5, abs=1e-4)
    assert similarity[True] > similarity[False] + 0.1


def test_losses_worked_out_by_hand() -> None:
    scores = torch.tensor([0.5, 0.5, 0.1])
    labels = torch.tensor([1.0, 0.0, 0.0])
    # (1 - 0.5)^2 / 4 = 0.0625; max(0.5 - 0.3, 0)^2 = 0.04; max(0.1 - 0.3, 0)^2 = 0
    assert siamese_loss(scores, labels, margin=0.3).item() == pytest.approx((0.0625 + 0.04) / 3)
    assert triplet_loss(torch.tensor([0.9, 0.2]), torch.tensor([0.1, 0.4]), margin=0.3).item() == pytest.approx(0.25)
