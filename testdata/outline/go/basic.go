package basic

const Answer = 42

type Server struct{}

func (s *Server) Serve() {}

func Run() {}
