"""The tool-calling agent: the loop over an OpenAI-compatible model (`loop`), its system
prompt (`prompt`), typed tools (`tools`, `tool_schema`) and the two memory tools the
model controls (`memory_tools`). Knows no chat platform."""
