"""Test doubles for the two boundaries the tests cannot run for real.

`llm_server.ScriptedModel` plays an OpenAI-compatible chat-completions endpoint.
"""
