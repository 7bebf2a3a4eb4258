// Placeholder until the line editor tests land.
