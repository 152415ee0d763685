"""The travel assistant that remembers each traveller: a platform-neutral core and one
package per chat platform. See docs/architecture.md."""
