"""Toy, a fourth chat platform in one folder: the proof that adding a platform is adding
a folder (`docs/adding-a-platform.md` walks through it). It has the four roles every
channel has, under the same file names: transport (`http`), parser (`incoming`), reply
sink (`sink`) and widgets (`widgets`), fed to the core's pipeline by `channel`. Its
"platform" is an outbox in memory (`channel.Toy.outbox`): what a person would see."""
