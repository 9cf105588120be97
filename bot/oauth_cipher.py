"""Bot and refresh tokens encrypted with DEBRIEF_TOKEN_KEY (Fernet; several
comma-separated keys: the first encrypts, any decrypts, so a key can be replaced). The
store keeps only the ciphertext; the key never reaches it."""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken, MultiFernet


class TokenKeyError(Exception):
    """A stored token DEBRIEF_TOKEN_KEY cannot decrypt: the key was changed or lost."""


class TokenCipher:
    """Tokens in and out of the store, encrypted with the DEBRIEF_TOKEN_KEY keys."""

    def __init__(self, keys: str) -> None:
        parts = [k.strip() for k in keys.split(",") if k.strip()]
        if not parts:
            raise ValueError("DEBRIEF_TOKEN_KEY holds no key")
        self._fernet = MultiFernet([Fernet(k.encode("ascii")) for k in parts])

    def encrypt(self, token: str) -> str:
        return self._fernet.encrypt(token.encode("utf-8")).decode("ascii")

    def decrypt(self, ciphertext: str) -> str:
        try:
            return self._fernet.decrypt(ciphertext.encode("ascii")).decode("utf-8")
        except (InvalidToken, ValueError):
            raise TokenKeyError(
                "a stored Slack token cannot be decrypted with DEBRIEF_TOKEN_KEY: was the key"
                " changed? Put the old key after the new one (comma-separated), or reinstall"
            ) from None
