"""A person's preferences form as data (`form`), what it opens with (`prefill`), saving it
(`saving`), and seeing or erasing what is remembered (`remembered`); each chat platform
only draws it."""
