package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// serverProcess is a cmd/server that the load test built and started.
type serverProcess struct {
	cmd    *exec.Cmd
	addr   string
	tmp    string
	exited chan struct{}
}

// serving is the line cmd/server logs once it listens.
var serving = regexp.MustCompile(`serving http://([^/\s]+)/`)

// startServer builds cmd/server from the module the load test runs in,
// starts it on 127.0.0.1:0 serving dir and waits until it listens. Its log
// goes to logs, each line marked as the server's.
func startServer(ctx context.Context, dir string, within time.Duration, logs io.Writer) (*serverProcess, error) {
	tmp, err := os.MkdirTemp("", "spacetime-loadtest")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(tmp, "server")
	fmt.Fprintln(logs, "loadtest: building spacetime/cmd/server")
	build := exec.CommandContext(ctx, goTool(), "build", "-o", bin, "spacetime/cmd/server")
	build.Stdout, build.Stderr = logs, logs
	if err := build.Run(); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("building the server: %w", err)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-dir", dir)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	cmd.Stdout = logs
	if err := cmd.Start(); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("starting the server: %w", err)
	}
	p := &serverProcess{cmd: cmd, tmp: tmp, exited: make(chan struct{})}
	listening := make(chan string, 1)
	go func() {
		// the server's log, all of it: it must not block on a full pipe
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			fmt.Fprintln(logs, "server|", sc.Text())
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case listening <- m[1]:
				default:
				}
			}
		}
		cmd.Wait()
		close(p.exited)
	}()
	select {
	case p.addr = <-listening:
		return p, nil
	case <-p.exited:
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("the server stopped before it listened: %v", cmd.ProcessState)
	case <-time.After(within):
		p.stop(logs)
		return nil, fmt.Errorf("the server did not listen within %s", within)
	}
}

// goTool is the go command that runs this program, or the one on PATH.
func goTool() string {
	if root := os.Getenv("GOROOT"); root != "" {
		if p := filepath.Join(root, "bin", "go"); fileExists(p) {
			return p
		}
	}
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// peakRSS is the most memory the server has held, from /proc; 0 where that
// cannot be read.
func (p *serverProcess) peakRSS() int64 { return p.status("VmHWM:") }

// rss is the memory the server holds now, from /proc; 0 where that cannot
// be read.
func (p *serverProcess) rss() int64 { return p.status("VmRSS:") }

// status reads one figure in kB from the server's /proc status, in bytes.
func (p *serverProcess) status(field string) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// stop asks the server to shut down (SIGTERM), as a service manager would,
// kills it if it has not stopped within 30 s, and removes its binary.
func (p *serverProcess) stop(logs io.Writer) {
	defer os.RemoveAll(p.tmp)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		p.cmd.Process.Kill()
	}
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		fmt.Fprintln(logs, "loadtest: the server did not stop within 30s of SIGTERM: killing it")
		p.cmd.Process.Kill()
		<-p.exited
	}
}
