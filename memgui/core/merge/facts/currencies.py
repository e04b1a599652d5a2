"""Currencies as notes write them: symbols and words, each to its ISO 4217 code (a hundredth of one for cents and
pence)."""
from __future__ import annotations

CURRENCY_SYMBOLS = {"€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB",
                    "₺": "TRY", "₪": "ILS", "₫": "VND", "฿": "THB", "₴": "UAH", "₦": "NGN", "₱": "PHP"}
# ISO 4217 codes and the names people write after an amount (a short closed list: no library maps
# "bucks" or "quid", and babel/pycountry are megabytes for this one lookup)
CURRENCY_WORDS = {
    "eur": "EUR", "euro": "EUR", "euros": "EUR", "usd": "USD", "dollar": "USD", "dollars": "USD", "bucks": "USD",
    "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "quid": "GBP", "sterling": "GBP", "jpy": "JPY", "yen": "JPY",
    "chf": "CHF", "franc": "CHF", "francs": "CHF", "cad": "CAD", "aud": "AUD", "nzd": "NZD", "inr": "INR",
    "rupee": "INR", "rupees": "INR", "sek": "SEK", "nok": "NOK", "dkk": "DKK", "kr": "SEK", "pln": "PLN",
    "zloty": "PLN", "czk": "CZK", "huf": "HUF", "cny": "CNY", "yuan": "CNY", "rmb": "CNY", "brl": "BRL",
    "mxn": "MXN", "krw": "KRW", "won": "KRW", "cents": "USD/100", "cent": "USD/100", "pence": "GBP/100",
    "p": "GBP/100",
}


__all__ = ["CURRENCY_SYMBOLS", "CURRENCY_WORDS"]
