"""The board over its serial link: framing, retries, the checks of its replies, LED style names."""
