"""The Zhuji 诸暨包牌 payout scheme (registered into payouts.SCHEMES)."""
