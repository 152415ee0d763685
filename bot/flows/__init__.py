"""What happens once a channel has parsed an event, the same for every chat platform.

`pipeline`: every event a channel receives goes one way (count → parse → claim once →
command or conversation), like a listener middleware. `actions`: what a command or a
button asks for (`Action`), and who asks (`Request`). `preferences` and `trips`: the flows
(show and forget one's preferences, with a confirmation; save a planned trip, with its one
payload and its one permission rule; present a plan). `approvals`: an out-of-policy
choice's reason, its approver's one decision, the traveller told (with `exceptions`, what
a save chooses, and `messengers`, how a channel reaches a person or a thread). `views`:
what a flow shows, as data, and the `Widgets` each channel draws it with. Nothing here
names a platform.
"""
