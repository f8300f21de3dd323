"""`mjcalc serve`: the calculator and the table ledger as one page (`page.html`) and a JSON API (`server`), from
the standard library, calling only the library's public names."""
