"""SynonymNet (Zhang et al., "SynonymNet: multi-context bilateral matching for entity synonyms") as a plain torch
module (this file imports torch and the standard library only).

- **Confluence context encoder** (§2.2): a forward LSTM reads a context from its start up to and including the
  mention, a backward LSTM from its end back to the mention; the context vector is both final states.
  The mention itself is one placeholder token, so the model reads only the context: the string is the NSEEN
  encoder's job, and the two scores are combined afterwards.
- **Bilateral matching with a leaky unit** (§2.3, eq. 2-3): the P contexts of one name against the Q of the
  other through a bilinear form, softmax over each side with a zero "leaky" context that takes the weight of
  uninformative ones.
- **Context aggregation** (§2.4, eq. 4): each context weighted by its best match; the score is the cosine of
  the two aggregated vectors.
- **Losses** (§2.5): Siamese (eq. 5-6) and triplet (eq. 7).
"""

from dataclasses import asdict, dataclass
from typing import Dict

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

LOSSES = ("siamese", "triplet")


@dataclass(frozen=True)
class SynonymNetConfig:
    """The shape of the model.

    n_words (int): rows of the word table (0 padding, 1 unknown, 2 the mention placeholder).
    word_width (int): word embedding width.
    hidden_width (int): LSTM width per direction; a context vector has 2 × hidden_width.
    leaky (bool): match against a zero leaky unit (False: the ablation "w/o leaky unit").
    dropout (float): dropout on the word embeddings.
    """

    n_words: int
    word_width: int = 64
    hidden_width: int = 64
    leaky: bool = True
    dropout: float = 0.1

    def __post_init__(self) -> None:
        if min(self.n_words, self.word_width, self.hidden_width) < 1:
            raise ValueError("all SynonymNet sizes must be positive")


class SynonymNet(nn.Module):
    """Scores whether two names are synonyms from their contexts.

    config (SynonymNetConfig): the sizes.
    """

    def __init__(self, config: SynonymNetConfig) -> None:
        super().__init__()
        self.config: Dict[str, object] = asdict(config)
        self.leaky = config.leaky
        self.embed = nn.Embedding(config.n_words, config.word_width, padding_idx=0)
        self.dropout = nn.Dropout(config.dropout)
        self.forward_lstm = nn.LSTM(config.word_width, config.hidden_width, batch_first=True)
        self.backward_lstm = nn.LSTM(config.word_width, config.hidden_width, batch_first=True)
        width = 2 * config.hidden_width
        self.bilinear = nn.Parameter(torch.eye(width) + 0.01 * torch.randn(width, width))

    def encode(
        self, left: torch.Tensor, left_lengths: torch.Tensor, right: torch.Tensor, right_lengths: torch.Tensor
    ) -> torch.Tensor:
        """The confluence encoder.

        left (torch.Tensor): int64 (n, T): each context's words up to and including the mention placeholder.
        left_lengths (torch.Tensor): int64 (n,), each at least 1.
        right (torch.Tensor): int64 (n, T): the words from the end back to the placeholder (reversed order).
        right_lengths (torch.Tensor): int64 (n,), each at least 1.
        RETURNS (torch.Tensor): float (n, 2 × hidden_width).
        """
        states = []
        for lstm, ids, lengths in ((self.forward_lstm, left, left_lengths), (self.backward_lstm, right, right_lengths)):
            embedded = self.dropout(self.embed(ids))
            packed = pack_padded_sequence(embedded, lengths.cpu(), batch_first=True, enforce_sorted=False)
            _, (h_n, _) = lstm(packed)
            states.append(h_n[-1])
        return torch.cat(states, dim=-1)

    def aggregate(
        self, h: torch.Tensor, h_mask: torch.Tensor, g: torch.Tensor, g_mask: torch.Tensor
    ) -> "tuple[torch.Tensor, torch.Tensor]":
        """Bilateral matching with the leaky unit, then each side's contexts weighted by their best match.

        h (torch.Tensor): float (B, P, d) contexts of the first names; h_mask (B, P) bool, True for real ones.
        g (torch.Tensor): float (B, Q, d) contexts of the second names; g_mask (B, Q) bool.
        RETURNS (tuple): the aggregated vectors (B, d) of both sides.
        """
        logits = torch.einsum("bpd,de,bqe->bpq", h, self.bilinear, g)
        fill = torch.finfo(logits.dtype).min
        pair_mask = h_mask[:, :, None] & g_mask[:, None, :]
        logits = logits.masked_fill(~pair_mask, fill)
        if self.leaky:  # the zero leaky unit: l W g^T = 0 for every g (and h W l^T = 0)
            zeros_row = torch.zeros_like(logits[:, :1, :])
            to_g = torch.softmax(torch.cat([logits, zeros_row], dim=1), dim=1)[:, :-1, :]
            zeros_col = torch.zeros_like(logits[:, :, :1])
            to_h = torch.softmax(torch.cat([logits, zeros_col], dim=2), dim=2)[:, :, :-1]
        else:
            to_g = torch.softmax(logits, dim=1)
            to_h = torch.softmax(logits, dim=2)
        to_g = to_g * pair_mask
        to_h = to_h * pair_mask
        a_q = to_g.max(dim=1).values  # (B, Q): g_q's best match among the h
        a_p = to_h.max(dim=2).values  # (B, P)
        h_bar = (a_p[:, :, None] * h).sum(dim=1)
        g_bar = (a_q[:, :, None] * g).sum(dim=1)
        return h_bar, g_bar

    def forward(self, h: torch.Tensor, h_mask: torch.Tensor, g: torch.Tensor, g_mask: torch.Tensor) -> torch.Tensor:
        """RETURNS (torch.Tensor): float (B,) the cosine of the aggregated contexts, in [-1, 1]."""
        h_bar, g_bar = self.aggregate(h, h_mask, g, g_mask)
        return nn.functional.cosine_similarity(h_bar, g_bar, dim=-1, eps=1e-6)


def siamese_loss(scores: torch.Tensor, labels: torch.Tensor, margin: float = 0.3) -> torch.Tensor:
    """Eq. 5-6: (1 - s)² / 4 for synonyms, max(s - margin, 0)² for the others.

    scores (torch.Tensor): float (B,) cosines; labels (torch.Tensor): float (B,) 1 or 0.
    RETURNS (torch.Tensor): the mean loss.
    """
    positive = 0.25 * (1.0 - scores) ** 2
    negative = torch.clamp(scores - margin, min=0.0) ** 2
    return (labels * positive + (1.0 - labels) * negative).mean()


def triplet_loss(positive: torch.Tensor, negative: torch.Tensor, margin: float = 0.3) -> torch.Tensor:
    """Eq. 7: max(s(h, g-) - s(h, g+) + margin, 0).

    RETURNS (torch.Tensor): the mean loss.
    """
    return torch.clamp(negative - positive + margin, min=0.0).mean()
