"""The platform-neutral conversation core: a message in (`incoming`), one turn (`turn`),
the reply as a stream plus structured parts (`reply`), thread history (`threads`) and
claim-once (`claims`). Every chat channel feeds it; it imports none of them."""
