package methods

type Server struct{}

func (s Server) Name() string { return "" }

func (s *Server) Serve() error { return nil }

func (Server) Unnamed() {}

func (*Server) UnnamedPointer() {}

// Methods stay where they are declared, even far from their type.
func (c *Client) Do() {}

type Client struct{}

func (Client) _() {}
