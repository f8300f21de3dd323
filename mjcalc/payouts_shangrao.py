"""The Shangrao 上饶 payout scheme (registered into payouts.SCHEMES)."""
