"""C front end: preprocessing, parsing, and mapping back to the user's source."""
