"""The NSEEN name encoder as a plain torch module (this file imports torch and the standard library only).

Characters → embedding → `depth` bidirectional LSTM layers → pooling over time → one dense layer →
L2-normalised vector (Fakhraei et al., NSEEN, §3.1, Fig. 1b).
"""

from dataclasses import asdict, dataclass
from typing import Dict

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

POOLINGS = ("max", "mean", "last")


@dataclass(frozen=True)
class EncoderConfig:
    """The shape of the encoder (what its weights depend on); the thinc layer is built from one too.

    n_chars (int): size of the character table (id 0 is padding).
    char_width (int): character embedding width.
    hidden_width (int): LSTM width per direction.
    depth (int): number of stacked bidirectional LSTM layers (the paper uses 4).
    output_width (int): width of the output vector (the dense layer).
    dropout (float): dropout between LSTM layers and before the dense layer.
    pooling (str): how the LSTM outputs become one vector: "max", "mean" or "last" (final states).
    """

    n_chars: int
    char_width: int = 64
    hidden_width: int = 128
    depth: int = 4
    output_width: int = 128
    dropout: float = 0.0
    pooling: str = "max"

    def __post_init__(self) -> None:
        if self.pooling not in POOLINGS:
            raise ValueError(f"pooling must be one of {POOLINGS}, got {self.pooling!r}")
        if min(self.n_chars, self.char_width, self.hidden_width, self.depth, self.output_width) < 1:
            raise ValueError("all encoder sizes must be positive")


class CharBiLSTMEncoder(nn.Module):
    """Encodes padded character-id sequences into unit vectors.

    config (EncoderConfig): the sizes, dropout and pooling.
    """

    def __init__(self, config: EncoderConfig) -> None:
        super().__init__()
        self.config: Dict[str, object] = asdict(config)
        self.pooling = config.pooling
        self.embed = nn.Embedding(config.n_chars, config.char_width, padding_idx=0)
        self.lstm = nn.LSTM(
            config.char_width,
            config.hidden_width,
            num_layers=config.depth,
            bidirectional=True,
            batch_first=True,
            dropout=config.dropout if config.depth > 1 else 0.0,
        )
        self.dropout = nn.Dropout(config.dropout)
        self.dense = nn.Linear(2 * config.hidden_width, config.output_width)

    def forward(self, char_ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """Encode a batch.

        char_ids (torch.Tensor): int64 (batch, time), padded with 0.
        lengths (torch.Tensor): int64 (batch,), each at least 1.
        RETURNS (torch.Tensor): float (batch, output_width), each row of L2 norm 1.
        """
        embedded = self.embed(char_ids)
        packed = pack_padded_sequence(embedded, lengths.cpu(), batch_first=True, enforce_sorted=False)
        outputs, (h_n, _) = self.lstm(packed)
        if self.pooling == "last":
            pooled = torch.cat([h_n[-2], h_n[-1]], dim=-1)
        else:
            padded, _ = pad_packed_sequence(outputs, batch_first=True)
            steps = torch.arange(padded.shape[1], device=padded.device)
            valid = (steps[None, :] < lengths.to(padded.device)[:, None]).unsqueeze(-1)
            if self.pooling == "max":
                pooled = padded.masked_fill(~valid, float("-inf")).max(dim=1).values
            else:
                pooled = (padded * valid).sum(dim=1) / lengths.to(padded.device)[:, None].clamp(min=1)
        vectors = self.dense(self.dropout(pooled))
        return nn.functional.normalize(vectors, p=2.0, dim=-1)
