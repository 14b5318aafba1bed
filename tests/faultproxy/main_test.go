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
		if r.URL.Path == "/apis" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":"batch"}},{"metadata":{"name":"kueue.x-k8s.io"}}]}`)
			return
		}
		if r.URL.Path == "/api/v1/throttled" {
			// As priority and fairness refuses: plain text, the delay only in the header.
			w.Header().Set("Retry-After", "3")
			http.Error(w, "Too many requests, please try again later.", http.StatusTooManyRequests)
			return
		}
		if r.Method == http.MethodPost { // a review: answered with the body it was sent
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			io.Copy(w, r.Body)
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

const tokenReviews = "/apis/authentication.k8s.io/v1/tokenreviews"

func postReview(ctx context.Context, url string) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, "POST", url+tokenReviews, strings.NewReader(`{"kind":"TokenReview"}`))
	req.Header.Set("Content-Type", "application/json")
	return http.DefaultClient.Do(req)
}

func records(t *testing.T, control *httptest.Server) []record {
	resp, err := http.Get(control.URL + "/requests")
	if err != nil {
		t.Fatal(err)
	}
	var all []record
	json.NewDecoder(resp.Body).Decode(&all)
	return all
}

func TestReviewsArePassedOnAndRefusedLikeAnyRequest(t *testing.T) {
	_, front, control := start(t, make(chan string))
	arm(t, control, "kind=status&match="+tokenReviews+"&verb=any&count=1&code=503&retryAfter=3")
	resp, err := postReview(context.Background(), front.URL)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "3" {
		t.Fatalf("got %d %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	resp, err = postReview(context.Background(), front.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 201 || string(body) != `{"kind":"TokenReview"}` {
		t.Fatalf("the second review should pass with its body: %d %s", resp.StatusCode, body)
	}
	if all := records(t, control); len(all) != 2 || all[0].Method != "POST" || all[0].Path != tokenReviews || all[0].Fault != "status" {
		t.Fatalf("records: %+v", all)
	}
}

func TestHangTakesARequestAndNeverAnswersUntilTheClientLeaves(t *testing.T) {
	_, front, control := start(t, make(chan string))
	arm(t, control, "kind=hang&match="+tokenReviews+"&count=1")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	started := time.Now()
	if resp, err := postReview(ctx, front.URL); err == nil {
		t.Fatalf("a hung review was answered: %d", resp.StatusCode)
	}
	if waited := time.Since(started); waited < 250*time.Millisecond {
		t.Fatalf("gave up after %v, not at the client's timeout", waited)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		all := records(t, control)
		if len(all) == 1 && all[0].EndMs >= 0 {
			if all[0].Fault != "hang" || all[0].Status != 0 {
				t.Fatalf("record: %+v", all[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hung exchange did not end when the client left: %+v", all)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if resp, err := postReview(context.Background(), front.URL); err != nil || resp.StatusCode != 201 {
		t.Fatalf("the next review should pass: %v %v", err, resp)
	}
}

func TestResetClosesTheConnectionWithNoAnswer(t *testing.T) {
	_, front, control := start(t, make(chan string))
	arm(t, control, "kind=reset&match="+tokenReviews+"&count=1")
	if resp, err := postReview(context.Background(), front.URL); err == nil {
		t.Fatalf("a reset review was answered: %d", resp.StatusCode)
	}
	if resp, err := postReview(context.Background(), front.URL); err != nil || resp.StatusCode != 201 {
		t.Fatalf("the next review should pass: %v %v", err, resp)
	}
	if all := records(t, control); len(all) != 2 || all[0].Fault != "reset" {
		t.Fatalf("records: %+v", all)
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

func TestHideTakesAGroupOutOfDiscoveryAndItsPathsUntilCleared(t *testing.T) {
	_, front, control := start(t, make(chan string))
	get := func(path string) (int, string) {
		resp, err := http.Get(front.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	arm(t, control, "kind=hide&match=kueue.x-k8s.io")
	if code, body := get("/apis"); code != 200 || strings.Contains(body, "kueue") || !strings.Contains(body, `"batch"`) {
		t.Fatalf("discovery while hidden: %d %s", code, body)
	}
	if code, body := get("/apis/kueue.x-k8s.io/v1beta2/workloads"); code != 404 || !strings.Contains(body, "NotFound") {
		t.Fatalf("a hidden group's path: %d %s", code, body)
	}
	if code, _ := get("/apis/kueue.x-k8s.io/v1beta2/workloads"); code != 404 {
		t.Fatalf("hidden until cleared, not for one request: %d", code)
	}
	if resp, err := http.Post(control.URL+"/clear", "", nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("clear: %v %v", err, resp)
	}
	if code, body := get("/apis"); code != 200 || !strings.Contains(body, "kueue.x-k8s.io") {
		t.Fatalf("discovery once cleared: %d %s", code, body)
	}
}
