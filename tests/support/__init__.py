"""What the tests share: card and game fixtures, service and league helpers, the offline Discord and its drivers.

No test module imports another; anything two test modules need lives here.
"""
