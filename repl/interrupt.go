package repl

import (
	"context"
	"os"
	"os/signal"
	"sync"
)

// interrupts hands Ctrl-C to the statement running. One signal.Notify
// serves a whole script or shell: setting one up and tearing it down
// around every statement (signal.NotifyContext) cost 0.19 ms a
// statement, more than a repeated statement's own work (issue 11).
type interrupts struct {
	sig  chan os.Signal
	done chan struct{}

	mu      sync.Mutex
	running context.CancelFunc // the running statement's; nil between statements
	idle    context.CancelFunc // what Ctrl-C between statements cancels; nil for nothing
}

func startInterrupts(idle context.CancelFunc) *interrupts {
	in := &interrupts{sig: make(chan os.Signal, 1), done: make(chan struct{}), idle: idle}
	signal.Notify(in.sig, os.Interrupt)
	go in.loop()
	return in
}

func (in *interrupts) loop() {
	for {
		select {
		case <-in.sig:
			in.mu.Lock()
			cancel := in.running
			if cancel == nil {
				cancel = in.idle
			}
			in.mu.Unlock()
			if cancel != nil {
				cancel()
			}
		case <-in.done:
			return
		}
	}
}

func (in *interrupts) stop() {
	signal.Stop(in.sig)
	close(in.done)
}

// statement derives the context of one statement, which Ctrl-C cancels
// until the returned function is called.
func (in *interrupts) statement(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	in.mu.Lock()
	outer := in.running // a statement run by a meta-command of a statement's script
	in.running = cancel
	in.mu.Unlock()
	return ctx, func() {
		in.mu.Lock()
		in.running = outer
		in.mu.Unlock()
		cancel()
	}
}

// catchInterrupts makes Ctrl-C cancel the running statement from now
// until the returned function is called; between statements it calls
// idle, when not nil. A call while interrupts are caught already (\i in
// the shell) changes only what Ctrl-C between statements does. A
// session whose Interrupt is set catches nothing: the caller decides.
func (s *Session) catchInterrupts(idle context.CancelFunc) func() {
	if s.Interrupt != nil {
		return func() {}
	}
	if in := s.interrupts; in != nil {
		in.mu.Lock()
		outer := in.idle
		in.idle = idle
		in.mu.Unlock()
		return func() {
			in.mu.Lock()
			in.idle = outer
			in.mu.Unlock()
		}
	}
	s.interrupts = startInterrupts(idle)
	return func() {
		s.interrupts.stop()
		s.interrupts = nil
	}
}

// statementContext derives the context of one statement so that Ctrl-C
// cancels the statement and not the session.
func (s *Session) statementContext(ctx context.Context) (context.Context, context.CancelFunc) {
	switch {
	case s.Interrupt != nil:
		return s.Interrupt(ctx)
	case s.interrupts != nil:
		return s.interrupts.statement(ctx)
	}
	// A statement run alone, outside a script or the shell.
	return signal.NotifyContext(ctx, os.Interrupt)
}
