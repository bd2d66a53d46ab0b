"""Filling records from outside sources (``papers enrich``): titles, authors and links.

Nothing here is imported by other commands, so a command that does not enrich pays nothing
for it (the HTTP client is imported only when a request is made).
"""
