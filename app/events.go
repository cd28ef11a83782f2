package app

// eventsOut is how every event leaves for a front end, whichever transport carries it (the
// window's Wails events, serve's event stream): startup wraps the transport it is handed in
// it, so that a payload's nil lists arrive as [] as bound results do (ListsNotNull), and no
// handler in the frontend guards an event's list against null. TestEventsOnlyLeaveThroughOut
// checks that nothing reaches a transport around it.
func eventsOut(transport Emitter) Emitter {
	return func(name string, payload any) { transport(name, ListsNotNull(payload)) }
}
