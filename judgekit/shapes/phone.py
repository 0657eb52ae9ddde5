"""Getting judgekit onto a phone: which address a judge opens, and which of them works offline.

A phone reaches the laptop over the venue's Wi-Fi by a plain-http address on the local network,
where browsers allow no service worker: nothing is stored, so nothing opens when the Wi-Fi drops.
Only the judge pack published at an https address (``judgekit serve --pack-url``) stores itself
on the phone. The page (/phone) and the home page's "Other judges" box render this dictionary;
/api/phone serves it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from judgekit import urls


def pack_address(value: str | None) -> str:
    """The published pack's address from the configuration ("" for none), or ValueError."""
    text = (value or "").strip()
    if not text:
        return ""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(
            "PACK_URL (judgekit serve --pack-url) must be the http(s) address the judge pack is "
            f"published at, such as https://USER.github.io/judgekit, not {text!r}"
        )
    return text.rstrip("/") + "/"


def stores_offline(address: str) -> bool:
    """Whether a browser may store a site opened at this address (a secure context)."""
    parts = urlsplit(address)
    return parts.scheme == "https" or (
        parts.scheme == "http" and urls.only_this_computer(address) is not None
    )


def phone_dict(base_url: str, pack_url: str) -> dict[str, Any]:
    """The addresses a judge's phone can open, and what each does when the network drops."""
    address = base_url.rstrip("/") + "/"
    pack = pack_address(pack_url)
    return {
        "address": {
            "url": address,
            "qr_url": urls.LAN_QR,
            # Another device can open it, which this computer's own loopback address is not.
            "other_devices": urls.only_this_computer(address) is None,
            "offline": False,
            "needs": "the venue's network, reaching this laptop",
        },
        "pack": (
            {
                "url": pack,
                "qr_url": urls.PHONE_PACK_QR,
                "offline": stores_offline(pack),
                "other_devices": urls.only_this_computer(pack) is None,
                "needs": "one visit while online; then no network",
            }
            if pack
            else None
        ),
    }
