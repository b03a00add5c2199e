"""What a person sees and types: the terminal view, piece names, the console."""
