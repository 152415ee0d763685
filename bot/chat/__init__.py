"""What the chat channels share and the core does not know: the chat markup three
platforms' text is written in (`markup`). Channels import it; the core never does."""
