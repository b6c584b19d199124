"""The old place of the encoder layer, kept for installs whose entry points still name it (an editable install
made before the package's folders existed: catalogue loads `spacy_nseen.encoder_layer:build_char_bilstm_encoder`
until `pip install -e .` is run again). New installs name `spacy_nseen.encoder.layer`."""
from .encoder.layer import build_char_bilstm_encoder

__all__ = ["build_char_bilstm_encoder"]
