// Placeholder until the line editor lands.
