"""The size of a base64 attachment, told without decoding it: padding and line breaks hold no bytes."""

from __future__ import annotations

import base64

from workbench.core.sizes import base64_size


def test_the_size_is_exact_with_no_one_or_two_padding_characters() -> None:
    assert [base64_size(b) for b in ("AAAA", "AAAAAAA=", "AAAAAA==", "QQ", "")] == [3, 5, 4, 1, 0]
    for n in range(64):
        data = bytes(range(n))
        assert base64_size(base64.b64encode(data).decode()) == n
        assert base64_size(base64.encodebytes(data).decode()) == n  # MIME lines of 76 characters
