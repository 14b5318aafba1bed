package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// An API server stand-in: a list, and a watch that sends one event a line as the test pushes them.
func fakeAPIServer(t *testing.T, events chan string) *httptest.Server {
	server := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/throttled" {
			// As priority and fairness refuses: plain text, the delay only in the header.
			w.Header().Set("Retry-After", "3")
			http.Error(w, "Too many requests, please try again later.", http.StatusTooManyRequests)
			return
		}
		if !isWatch(r) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"kind":"PodList","metadata":{"resourceVersion":"5"},"items":[]}`)
			return
		}
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for {
			select {
			case line := <-events:
				io.WriteString(w, line+"\n")
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}))
	t.Cleanup(server.Close)
	return server
}

func start(t *testing.T, events chan string) (*proxy, *httptest.Server, *httptest.Server) {
	upstream := fakeAPIServer(t, events)
	p := newProxy(upstream.URL, nil)
	p.transport.TLSClientConfig = upstream.Client().Transport.(*http.Transport).TLSClientConfig
	front := httptest.NewServer(p)
	t.Cleanup(front.Close)
	control := httptest.NewServer(p.control())
	t.Cleanup(control.Close)
	return p, front, control
}

func arm(t *testing.T, control *httptest.Server, query string) {
	resp, err := http.Post(control.URL+"/fault?"+query, "", nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("arming %s: %v %v", query, err, resp)
	}
}

func TestStatusFaultAnswersWithRetryAfterThenForwards(t *testing.T) {
	_, front, control := start(t, make(chan string))
	arm(t, control, "kind=status&match=/api/v1/pods&verb=list&count=1&code=429&retryAfter=2")
	resp, err := http.Get(front.URL + "/api/v1/pods?limit=500")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" || !strings.Contains(string(body), `"retryAfterSeconds":2`) {
		t.Fatalf("got %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	resp, err = http.Get(front.URL + "/api/v1/pods?limit=500")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the second list should pass: %v %v", err, resp)
	}
	records, _ := http.Get(control.URL + "/requests")
	var all []record
	json.NewDecoder(records.Body).Decode(&all)
	if len(all) != 2 || all[0].Status != 429 || all[0].RetryAfter != 2 || all[1].Status != 200 {
		t.Fatalf("records: %+v", all)
	}
}

func TestCutSendsHalfAnEventThenBreaksTheConnection(t *testing.T) {
	events := make(chan string, 4)
	_, front, control := start(t, events)
	resp, err := http.Get(front.URL + "/api/v1/pods?watch=1")
	if err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewReader(resp.Body)
	events <- `{"type":"ADDED","object":{"metadata":{"name":"a"}}}`
	if line, err := lines.ReadString('\n'); err != nil || !strings.Contains(line, `"a"`) {
		t.Fatalf("first event: %q %v", line, err)
	}
	arm(t, control, "kind=cut&match=/api/v1/pods")
	events <- `{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"7"}}}`
	events <- `{"type":"ADDED","object":{"metadata":{"name":"b-with-a-long-name"}}}`
	if line, err := lines.ReadString('\n'); err != nil || !strings.Contains(line, "BOOKMARK") {
		t.Fatalf("a bookmark passes: %q %v", line, err)
	}
	line, err := lines.ReadString('\n')
	if err == nil || !strings.HasPrefix(line, `{"type":"ADDED"`) || strings.Contains(line, "}}}") {
		t.Fatalf("want half an event then an error, got %q %v", line, err)
	}
}

func TestStallHoldsTheWatchSilentUntilTheClientLeaves(t *testing.T) {
	events := make(chan string, 4)
	p, front, control := start(t, events)
	arm(t, control, "kind=stall&match=/api/v1/pods")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", front.URL+"/api/v1/pods?watch=1", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	events <- `{"type":"ADDED","object":{"metadata":{"name":"a"}}}`
	if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err == nil {
		t.Fatal("a stalled watch passed an event on")
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		p.mu.Lock()
		r := *p.records[0]
		p.mu.Unlock()
		if r.EndMs >= 0 {
			if r.Fault != "stall" || r.StallMs < 0 {
				t.Fatalf("record: %+v", r)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stalled exchange did not end when the client left")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTheServersOwnRetryAfterIsPassedOnAndRecorded(t *testing.T) {
	_, front, control := start(t, make(chan string))
	resp, err := http.Get(front.URL + "/api/v1/throttled?limit=500")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
		t.Fatalf("got %d %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	records, _ := http.Get(control.URL + "/requests")
	var all []record
	json.NewDecoder(records.Body).Decode(&all)
	if len(all) != 1 || all[0].Status != 429 || all[0].RetryAfter != 3 || all[0].Fault != "" {
		t.Fatalf("records: %+v", all)
	}
}
